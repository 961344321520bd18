"""The site's own date formats, where Django's for a language are not how its readers write
(settings.FORMAT_MODULE_PATH); what is not set here is Django's."""
