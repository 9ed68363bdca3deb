from django.urls import path

from roboracer.courses import views

urlpatterns = [
    path("courses/", views.course_list, name="courses"),
    path("courses/<slug:slug>/", views.course_detail, name="course"),
]
