"""The Bluff Arena Django project and app: models, services, API and pages."""
