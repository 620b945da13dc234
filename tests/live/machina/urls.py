from django.urls import include, path

urlpatterns = [path("forum/", include("machina.urls"))]
