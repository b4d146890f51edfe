"""Presentation: the command line (`web.cli`) and, later, the Flask app.

Only presents what `kb` answers; no parsing or storage logic lives here.
"""
