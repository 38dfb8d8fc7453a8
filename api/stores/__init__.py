"""Where games live: one small interface (`api.stores.base.Store`) and its adapters."""
