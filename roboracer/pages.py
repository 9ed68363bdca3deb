"""Site-wide error pages."""

from django.shortcuts import render


def _error_page(request, exception, status: int):
    """The page `<status>.html` with the exception's sentence for players, if it carries one. Our own views raise
    Http404 and PermissionDenied with a sentence ("no such game", "only the course's author and staff can edit
    it"); Django's URL resolver raises Resolver404 with a dict of the patterns it tried, which Django's default
    view shows by its class name ("Resolver404"). So only a string message is shown, never an exception's name."""
    args = getattr(exception, "args", ())
    message = args[0] if args and isinstance(args[0], str) else ""
    return render(request, f"{status}.html", {"message": message, "request_path": request.path}, status=status)


def page_not_found(request, exception=None):
    return _error_page(request, exception, 404)


def permission_denied(request, exception=None):
    """The 403 page, in the site's frame (it was Django's bare "403 Forbidden")."""
    return _error_page(request, exception, 403)
