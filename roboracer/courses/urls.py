from django.urls import path

from roboracer.courses import api, views

urlpatterns = [
    path("courses/", views.course_list, name="courses"),
    # Before "courses/<slug>/": these words are reserved slugs (services.RESERVED_SLUGS).
    path("courses/new/", views.course_new, name="course-new"),
    path("courses/review/", views.review_queue, name="course-review"),
    path("courses/<slug:slug>/", views.course_detail, name="course"),
    path("courses/<slug:slug>/edit/", views.course_edit, name="course-edit"),
    path("courses/<slug:slug>/review/", views.course_review, name="course-review-page"),
    path("courses/<slug:slug>/transition/", views.course_transition, name="course-transition"),
]

api_urlpatterns = [
    path("course-elements/", api.ElementCatalogView.as_view(), name="api-course-elements"),
    path("courses/", api.CourseListView.as_view(), name="api-courses"),
    path("courses/validate/", api.ValidateCourseView.as_view(), name="api-course-validate"),
    path("courses/<slug:slug>/", api.CourseDetailView.as_view(), name="api-course"),
    path("courses/<slug:slug>/transition/", api.CourseTransitionView.as_view(), name="api-course-transition"),
    path("courses/<slug:slug>/versions/", api.CourseVersionsView.as_view(), name="api-course-versions"),
    path("courses/<slug:slug>/comments/", api.CourseCommentsView.as_view(), name="api-course-comments"),
    path("courses/<slug:slug>/comments/<int:pk>/", api.CourseCommentView.as_view(), name="api-course-comment"),
]
