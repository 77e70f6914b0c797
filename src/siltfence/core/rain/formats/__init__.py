"""Readers, one per published layout. Each takes numbered lines and yields ``Reading``s."""
