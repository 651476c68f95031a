-- 014_append_function.sql: one statement for one append.
--
-- An append moved the match's head (the guard) and then inserted its
-- events one statement each: 1 + N round trips inside the transaction.
-- append_match_events does both in one call, so the service can send it with
-- BEGIN, the request's nonce and COMMIT and wait once (store_append,
-- db_queue).
--
-- The guard is unchanged: the head moves only from exactly the head the
-- writer read, which locks the match row until the transaction ends. A
-- writer that lost the race gets SQLSTATE PB409 ("pbem: stale head"), an
-- error and not "0 rows", so whatever was sent after it in the same
-- transaction is not run and the transaction can only roll back.
--
-- The events come as parallel arrays, one element per event, in order:
-- kind, seat (NULL for none), canonical body, prev_hash, hash. The service
-- computes the bodies and the hash chain; this function only stores them.

CREATE FUNCTION append_match_events(
    p_match_id bigint,
    p_expected_head bigint,
    p_head_hash bytea,
    p_status text,
    p_kinds text[],
    p_seats integer[],
    p_bodies text[],
    p_prev_hashes bytea[],
    p_hashes bytea[])
RETURNS void
LANGUAGE plpgsql
AS $$
BEGIN
    UPDATE matches
       SET head_seq = p_expected_head + coalesce(cardinality(p_kinds), 0),
           head_hash = p_head_hash,
           status = coalesce(p_status, status),
           updated_at = now()
     WHERE match_id = p_match_id AND head_seq = p_expected_head;
    IF NOT FOUND THEN
        RAISE EXCEPTION 'match % is no longer at event %',
            p_match_id, p_expected_head
            USING ERRCODE = 'PB409';
    END IF;
    INSERT INTO events (match_id, seq, kind, seat, body, prev_hash, hash)
    SELECT p_match_id, p_expected_head + e.n, e.kind, e.seat, e.body,
           e.prev_hash, e.hash
      FROM unnest(p_kinds, p_seats, p_bodies, p_prev_hashes, p_hashes)
           WITH ORDINALITY AS e(kind, seat, body, prev_hash, hash, n);
END
$$;
