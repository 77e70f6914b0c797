"""The ordinances as data: model, strict loader, versions, citations."""
