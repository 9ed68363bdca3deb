"""Site-wide error pages."""

from django.shortcuts import render


def page_not_found(request, exception=None):
    """The 404 page. Our own views raise Http404 with a sentence for players ("no such game"); Django's URL
    resolver raises Resolver404 with a dict of the patterns it tried, which Django's default view shows by
    its class name ("Resolver404"). So only a string message is shown, never an exception's name."""
    args = getattr(exception, "args", ())
    message = args[0] if args and isinstance(args[0], str) else ""
    return render(request, "404.html", {"message": message, "request_path": request.path}, status=404)


def permission_denied(request, exception=None):
    """The 403 page, in the site's frame (it was Django's bare "403 Forbidden"). Our views raise PermissionDenied
    with a sentence for players ("only the course's author and staff can edit it"); only a string is shown."""
    args = getattr(exception, "args", ())
    message = args[0] if args and isinstance(args[0], str) else ""
    return render(request, "403.html", {"message": message, "request_path": request.path}, status=403)
