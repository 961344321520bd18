"""Russian date formats of the site."""
