"""Migration revisions (a package only so that it ships with the distribution)."""
