from django.contrib.auth import views as auth_views
from django.urls import path

from roboracer.accounts import api, api_tokens, views
from roboracer.accounts.forms import LoginForm

urlpatterns = [
    path("accounts/signup/", views.signup, name="signup"),
    path("accounts/login/", auth_views.LoginView.as_view(authentication_form=LoginForm), name="login"),
    path("accounts/logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("profile/", views.profile, name="profile"),
    path("profile/tokens/", views.tokens, name="profile-tokens"),
]

api_urlpatterns = [
    path("auth/csrf/", api.CsrfView.as_view(), name="api-csrf"),
    path("auth/signup/", api.SignupView.as_view(), name="api-signup"),
    path("auth/login/", api.LoginView.as_view(), name="api-login"),
    path("auth/logout/", api.LogoutView.as_view(), name="api-logout"),
    path("profile/", api.ProfileView.as_view(), name="api-profile"),
    path("tokens/", api_tokens.TokensView.as_view(), name="api-tokens"),
    path("tokens/<str:handle>/", api_tokens.TokenView.as_view(), name="api-token"),
]
