"""``runserver`` for ``make run``: Django's development server with a listen backlog that holds a
burst (50 phones at the end of a round), not the ten connections ``socketserver`` queues before
the kernel starts refusing them. Listed in INSTALLED_APPS after WhiteNoise's ``runserver`` (which
builds on the next one down, this one) and before ``django.contrib.staticfiles``."""
