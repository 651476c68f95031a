-- The statements one accepted move costs the service, run by pgbench alone
-- (no HTTP, signatures or rules): move the head with the guard, append the
-- event, remember the request nonce. (The benchmarked service has no mail
-- or webhook configured, so it queues no outbox row either.)
\set match_id :client_id + 1
BEGIN;
UPDATE matches SET head_seq = head_seq + 1,
    head_hash = '\x0000000000000000000000000000000000000000000000000000000000000000',
    updated_at = now()
    WHERE match_id = :match_id RETURNING head_seq AS seq \gset
INSERT INTO events (match_id, seq, kind, seat, body, prev_hash, hash)
    VALUES (:match_id, :seq, 'move', 0,
    '{"at":"2026-11-22T00:00:00.000000Z","data":{"action":{"type":"draw"},"request":{"body":"{\"seq\":12,\"action\":{\"type\":\"draw\"}}","content_digest":"sha-256=:0Ce92zIA5kmesI1Yuzf8mpbTTQMteLmE5p7lkNmDhq8=:","keyid":"k_0123456789abcdef","method":"POST","signature":"sig=:0LkR1LDjwjXEhhVWZZIpATnJNjdxKbEx7v4GOE0t2Epi3KNdkG5E0TRjMkU89JhgrzlMrJVuYpSzDtrPuQ0fDg==:","signature_input":"sig=(\"@method\" \"@path\" \"content-digest\");created=1700000000;keyid=\"k_0123456789abcdef\";alg=\"ed25519\";nonce=\"n-7f3a9c\"","target":"/v1/matches/m_1/moves"},"text":"draw"},"kind":"move","match":"m_1","seat":0,"seq":12}',
    '\x0000000000000000000000000000000000000000000000000000000000000000',
    '\x0000000000000000000000000000000000000000000000000000000000000000');
INSERT INTO request_nonces (key_id, nonce, request_digest, status, response)
    VALUES ('bench-' || :client_id, :seq, '\x00', 200,
    '{"hash":"0000000000000000000000000000000000000000000000000000000000000000","over": false,"pending":{"prompt":"draw 2 cards or pick up the discard pile","seats":[1],"wait":"one"},"result":{"over": false,"ranking":[[0,1]],"scores":[0,0]},"seq":12}');
COMMIT;
