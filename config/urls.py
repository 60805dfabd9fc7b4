"""Root URL configuration."""

from django.contrib import admin
from django.urls import path
from django.views.generic import TemplateView

from config import views

urlpatterns = [
    path("", TemplateView.as_view(template_name="home.html"), name="home"),
    path("health/", views.health, name="health"),
    path("admin/", admin.site.urls),
]
