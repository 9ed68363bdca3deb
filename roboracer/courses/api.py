"""Courses over the API: the element catalogue, the validator, the list, one course, and the builder's writes
(create, update, transition, versions, review comments; the test drive makes a game: games/api/test_drive.py). Thin: parse, call
a service or selector, shape."""

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import serializers, status
from rest_framework.exceptions import APIException
from rest_framework.permissions import AllowAny, IsAuthenticated, IsAuthenticatedOrReadOnly
from rest_framework.response import Response
from rest_framework.views import APIView

from roboracer.accounts.tokens import TOKEN_RULES
from roboracer.common.errors import NotFound
from roboracer.common.parsers import JSONParser
from roboracer.courses import selectors, services
from roboracer.courses.models import Course

MAX_BODY = 256 * 1024  # bytes: a course JSON (with its envelope) over this gets a 413 (docs/api.md)


class PayloadTooLarge(APIException):
    status_code = 413
    default_detail = f"the request body is over {MAX_BODY // 1024} KiB, the most a course may take"
    default_code = "payload_too_large"


class ErrorSerializer(serializers.Serializer):
    detail = serializers.CharField()


class SquareMessageSerializer(serializers.Serializer):
    message = serializers.CharField()
    squares = serializers.ListField(child=serializers.ListField(child=serializers.IntegerField()),
                                    help_text="[[x, y], ...] the message points at")


class ValidationReportSerializer(serializers.Serializer):
    errors = SquareMessageSerializer(many=True)
    warnings = SquareMessageSerializer(many=True)


class InvalidCourseSerializer(ValidationReportSerializer):
    detail = serializers.CharField(help_text="the first error's message")


class CourseSummarySerializer(serializers.Serializer):
    """Documentation only: built by roboracer.courses.selectors.course_summary."""

    slug = serializers.SlugField()
    name = serializers.CharField()
    min_players = serializers.IntegerField()
    max_players = serializers.IntegerField()
    bundled = serializers.BooleanField()
    size = serializers.ListField(child=serializers.IntegerField(), help_text="[width, height] in squares")
    state = serializers.ChoiceField(choices=Course.State.choices)
    version = serializers.IntegerField()
    author = serializers.CharField(allow_null=True, help_text="the author's display name; null for bundled courses")


class TransitionRecordSerializer(serializers.Serializer):
    # "from" is a keyword: the field is declared under another name and renamed in the schema below.
    from_ = serializers.ChoiceField(choices=Course.State.choices)
    to = serializers.ChoiceField(choices=Course.State.choices)
    by = serializers.CharField(allow_null=True)
    reason = serializers.CharField(allow_blank=True)
    at = serializers.DateTimeField()

    def get_fields(self):
        fields = super().get_fields()
        fields["from"] = fields.pop("from_")
        return fields


class CourseSerializer(CourseSummarySerializer):
    """Documentation only: built by roboracer.courses.selectors.course_detail."""

    data = serializers.JSONField(help_text="the course in the roboracer-course/1 format (docs/formats.md)")
    lineage = serializers.SlugField(help_text="the slug of version 1")
    editable = serializers.BooleanField(help_text="the viewer may change it (author or staff)")
    can = serializers.ListField(child=serializers.ChoiceField(choices=Course.State.choices),
                                help_text="the states the viewer may move it to now")
    history = TransitionRecordSerializer(many=True)


class CourseWriteSerializer(serializers.Serializer):
    data = serializers.JSONField(help_text="the course in the roboracer-course/1 format (docs/formats.md)")


class TransitionSerializer(serializers.Serializer):
    to = serializers.ChoiceField(choices=Course.State.choices)
    reason = serializers.CharField(required=False, allow_blank=True, default="", max_length=2000,
                                   help_text="why; required to send a course back from review")


class VersionSerializer(serializers.Serializer):
    slug = serializers.SlugField()
    version = serializers.IntegerField()
    state = serializers.ChoiceField(choices=Course.State.choices)
    created = serializers.DateTimeField()


def _errors(*codes: int) -> dict:
    return {code: OpenApiResponse(ErrorSerializer) for code in codes}


class BodyLimit:
    """Course bodies are JSON only (a form is a 415), and one over MAX_BODY is refused with 413 before it is
    parsed (by its Content-Length)."""

    parser_classes = [JSONParser]

    def initial(self, request, *args, **kwargs):
        if request.method in ("POST", "PUT", "PATCH"):
            try:
                length = int(request.META.get("CONTENT_LENGTH") or 0)
            except ValueError:
                length = 0
            if length > MAX_BODY:
                raise PayloadTooLarge()
        super().initial(request, *args, **kwargs)


def _course_or_404(user, slug: str) -> Course:
    course = selectors.visible_course(user=user, slug=slug)
    if course is None:
        raise NotFound(selectors.missing(slug))
    return course


def _invalid(error: services.InvalidCourse) -> Response:
    return Response({"detail": error.message, "errors": error.errors, "warnings": error.warnings},
                    status=status.HTTP_400_BAD_REQUEST)


class ElementCatalogView(APIView):
    permission_classes = [AllowAny, *TOKEN_RULES]

    @extend_schema(responses={200: OpenApiTypes.OBJECT}, summary="Every course element the engine knows")
    def get(self, request):
        return Response(selectors.element_catalog())


class ValidateCourseView(BodyLimit, APIView):
    permission_classes = [IsAuthenticated, *TOKEN_RULES]

    @extend_schema(request=OpenApiTypes.OBJECT, responses={200: ValidationReportSerializer, **_errors(400, 403, 413, 422)},
                   summary="Validate a course JSON: errors and warnings, each with its squares")
    def post(self, request):
        return Response(selectors.validate(data=request.data))


class CourseListView(BodyLimit, APIView):
    permission_classes = [IsAuthenticatedOrReadOnly, *TOKEN_RULES]

    @extend_schema(responses=CourseSummarySerializer(many=True), summary="The courses I may see")
    def get(self, request):
        courses = selectors.visible_courses(user=request.user).select_related("author", "author__profile")
        return Response([selectors.course_summary(course=course) for course in courses])

    @extend_schema(request=CourseWriteSerializer,
                   responses={201: CourseSerializer, 400: InvalidCourseSerializer, **_errors(403, 409, 413, 422)},
                   summary="Create a private course of mine")
    def post(self, request):
        serializer = CourseWriteSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        try:
            course = services.create_course(user=request.user, data=serializer.validated_data["data"])
        except services.InvalidCourse as error:
            return _invalid(error)
        return Response(selectors.course_detail(course=course, user=request.user), status=status.HTTP_201_CREATED)


class CourseDetailView(BodyLimit, APIView):
    permission_classes = [IsAuthenticatedOrReadOnly, *TOKEN_RULES]

    @extend_schema(responses={200: CourseSerializer, **_errors(404)}, summary="One course with its elements")
    def get(self, request, slug: str):
        return Response(selectors.course_detail(course=_course_or_404(request.user, slug), user=request.user))

    @extend_schema(request=CourseWriteSerializer,
                   responses={200: CourseSerializer, 201: CourseSerializer, 400: InvalidCourseSerializer,
                              **_errors(403, 404, 409, 413, 422)},
                   summary="Change a course: in place (private, development), or a new version (stable: 201)")
    def put(self, request, slug: str):
        serializer = CourseWriteSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        try:
            course, new = services.update_course(user=request.user, slug=slug, data=serializer.validated_data["data"])
        except services.InvalidCourse as error:
            return _invalid(error)
        return Response(selectors.course_detail(course=course, user=request.user),
                        status=status.HTTP_201_CREATED if new else status.HTTP_200_OK)


class CourseTransitionView(APIView):
    @extend_schema(request=TransitionSerializer, responses={200: CourseSerializer, **_errors(400, 403, 404, 409)},
                   summary="Change a course's state (docs/course-builder.md, States and review)")
    def post(self, request, slug: str):
        serializer = TransitionSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        course = services.transition_course(user=request.user, slug=slug, **serializer.validated_data)
        return Response(selectors.course_detail(course=course, user=request.user))


class CourseVersionsView(APIView):
    permission_classes = [AllowAny, *TOKEN_RULES]

    @extend_schema(responses={200: VersionSerializer(many=True), **_errors(404)},
                   summary="The versions of a course's lineage I may see")
    def get(self, request, slug: str):
        course = _course_or_404(request.user, slug)
        return Response([{"slug": c.slug, "version": c.version, "state": c.state, "created": c.created_at}
                         for c in selectors.versions(user=request.user, course=course)])


# --- Review comments (docs/course-builder.md, "Review comments"). ------------------------------------------
class CommentSerializer(serializers.Serializer):
    """Documentation only: built by roboracer.courses.selectors.comment_shape."""

    id = serializers.IntegerField()
    number = serializers.IntegerField(allow_null=True, help_text="1, 2, ... per thread, as on the board's markers; "
                                                                  "null for a reply")
    reply_to = serializers.IntegerField(allow_null=True, help_text="the thread's first comment; null for a thread")
    author = serializers.CharField(allow_null=True, help_text="display name; null for a deleted account")
    by_course_author = serializers.BooleanField()
    text = serializers.CharField()
    x = serializers.IntegerField(allow_null=True, help_text="the square's column; null: the whole course")
    y = serializers.IntegerField(allow_null=True)
    on_board = serializers.BooleanField(help_text="the square is on the board as it is now (a resize may drop it)")
    resolved = serializers.BooleanField()
    resolved_by = serializers.CharField(allow_null=True)
    resolved_at = serializers.DateTimeField(allow_null=True)
    created_at = serializers.DateTimeField()


class CommentListSerializer(serializers.Serializer):
    comments = CommentSerializer(many=True)
    may_comment = serializers.BooleanField(help_text="the viewer may start a comment (a reviewer, in review)")
    may_reply = serializers.BooleanField(help_text="the viewer may reply and mark threads resolved")


class CommentWriteSerializer(serializers.Serializer):
    text = serializers.CharField(max_length=services.COMMENT_LENGTH, trim_whitespace=True)
    x = serializers.IntegerField(required=False, allow_null=True, default=None)
    y = serializers.IntegerField(required=False, allow_null=True, default=None)
    reply_to = serializers.IntegerField(required=False, allow_null=True, default=None, min_value=1)


class CommentResolveSerializer(serializers.Serializer):
    resolved = serializers.BooleanField()


def _comment_answer(*, course: Course, comment_id: int) -> dict:
    row = next(row for row in selectors.comments(course=course) if row.pk == comment_id)
    return selectors.comment_shape(comment=row, course=course)


class CourseCommentsView(BodyLimit, APIView):
    permission_classes = [IsAuthenticatedOrReadOnly, *TOKEN_RULES]

    @extend_schema(responses={200: CommentListSerializer, **_errors(404)},
                   summary="A course version's review comments (its author, reviewers, staff)")
    def get(self, request, slug: str):
        course = _course_or_404(request.user, slug)
        if not selectors.may_read_comments(user=request.user, course=course):
            raise NotFound(selectors.missing(slug))
        return Response(selectors.comment_list(course=course, user=request.user))

    @extend_schema(request=CommentWriteSerializer, responses={201: CommentSerializer, **_errors(400, 403, 404, 409, 413)},
                   summary="Comment on a course in review (on a square, or the whole course), or reply in a thread")
    def post(self, request, slug: str):
        serializer = CommentWriteSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        comment = services.add_comment(user=request.user, slug=slug, **serializer.validated_data)
        return Response(_comment_answer(course=comment.course, comment_id=comment.pk),
                        status=status.HTTP_201_CREATED)


class CourseCommentView(BodyLimit, APIView):
    @extend_schema(request=CommentResolveSerializer, responses={200: CommentSerializer, **_errors(400, 403, 404)},
                   summary="Mark a comment's thread resolved, or open it again")
    def patch(self, request, slug: str, pk: int):
        serializer = CommentResolveSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        comment = services.resolve_comment(user=request.user, slug=slug, comment_id=pk,
                                           resolved=serializer.validated_data["resolved"])
        return Response(_comment_answer(course=comment.course, comment_id=comment.pk))
