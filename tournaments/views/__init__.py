"""Tournament views, one module per audience: public pages, organizer pages."""
