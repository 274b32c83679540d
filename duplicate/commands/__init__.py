"""The ``guandan`` commands, one module a family; ``cli.py`` registers them."""
