"""Platform-neutral text shaping that adapters share: tables, splitting."""
