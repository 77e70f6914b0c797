from django import forms, template
from django.utils.safestring import SafeString

from siltfence.apps.audit.models import action_words
from siltfence.presentation import labels

register = template.Library()

_WIDGET_CLASS = {
    forms.Select: "usa-select",
    forms.Textarea: "usa-textarea",
    forms.CheckboxInput: "usa-checkbox__input",
    forms.FileInput: "",
}


@register.filter
def words(value: object) -> str:
    """``control_plan_statement`` -> ``control plan statement``, or the plain label."""
    return labels.label(str(value or ""))


@register.filter
def record_words(value: object) -> str:
    """An audit record's action in plain words (see ``audit.models.action_words``)."""
    return action_words(str(value or ""))


@register.filter
def says(value: object) -> str:
    """A sentence from the core, in the words of the screens (see ``labels.say``)."""
    return labels.say(str(value or ""))


@register.filter
def gap_label(number: object) -> str:
    """A gap of the ordinance's text, as a reader calls it."""
    return labels.gap(number)


@register.filter
def uswds(field: forms.BoundField) -> SafeString:
    """A Django form field rendered with the USWDS class of its widget."""
    widget = field.field.widget
    css = next((c for kind, c in _WIDGET_CLASS.items() if isinstance(widget, kind)), "usa-input")
    attrs: dict[str, str | bool] = {
        "class": f"{css} usa-input--error".strip() if field.errors else css
    }
    return field.as_widget(attrs=attrs)


@register.filter
def code_spans(text: object) -> SafeString:
    """``text`` escaped, with each name between backticks set as code: "the `rain_in`
    column" reads the <code>rain_in</code> column. Unpaired backticks are left as written."""
    from django.utils.html import escape
    from django.utils.safestring import mark_safe

    parts = str(text).split("`")
    if len(parts) % 2 == 0:
        return escape(str(text))
    spans = (escape(p) if i % 2 == 0 else f"<code>{escape(p)}</code>" for i, p in enumerate(parts))
    return mark_safe("".join(spans))  # every part is escaped above
