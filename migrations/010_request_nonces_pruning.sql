-- request_nonces rows are pruned once the signature window has closed on
-- them (store_prune_nonces): the oldest are found by when they were made.
CREATE INDEX request_nonces_created ON request_nonces (created_at);
