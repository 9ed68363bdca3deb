from django.urls import path

from roboracer.courses import api, views

urlpatterns = [
    path("courses/", views.course_list, name="courses"),
    path("courses/<slug:slug>/", views.course_detail, name="course"),
]

api_urlpatterns = [
    path("courses/", api.CourseListView.as_view(), name="api-courses"),
    path("courses/<slug:slug>/", api.CourseDetailView.as_view(), name="api-course"),
]
