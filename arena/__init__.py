"""The Lie 21 Arena Django project and app: models, services, API and pages."""
