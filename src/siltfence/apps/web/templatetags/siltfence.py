from django import template

register = template.Library()


@register.filter
def words(value: object) -> str:
    """``control_plan_statement`` -> ``control plan statement``."""
    return str(value or "").replace("_", " ")
