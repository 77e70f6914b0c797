"""What the pages of every app share: the words of the screens (labels, wording), lists a
page at a time (paging) with their columns and downloads (tables), a section's words and
the links into them (sections), and a plan's design-check report (plan_reports, design_pdf).

Below every app: an app's views import this package, and this package imports no app's
views. It is not a Django app; the templates these helpers fill stay where their pages are
(docs/decisions/0048-shared-page-helpers.md).
"""
