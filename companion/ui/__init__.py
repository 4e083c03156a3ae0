"""The table service's user interface: views, screens drawn from them, pages that react to keys."""
