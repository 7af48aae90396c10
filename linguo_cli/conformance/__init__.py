"""The golden conformance suite: loading, checking, comparing, the runners and the
adapter."""
