"""Pages (filled in by the web pages issue)."""

from django.urls import path

from arena.web import views

urlpatterns = [path("", views.home, name="home")]
