from django.apps import AppConfig


class PeopleConfig(AppConfig):
    """A village's people, managed by its staff from the web: add a person to a role with a
    term, change the term, end the membership (decision 36). Who a person is and how they
    sign in is the accounts app's; this app sits above it, and above the villages (permits)
    and the emails (outbox) it uses."""

    name = "siltfence.apps.people"
    label = "people"
    verbose_name = "A village's people"
