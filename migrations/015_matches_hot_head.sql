-- Every move moves its match's head and updated_at. matches_status
-- (status, updated_at) indexed updated_at, so every such UPDATE wrote a
-- new entry in both of the table's indexes (no HOT update) and left the
-- old ones for vacuum. No query reads by it: the lists of a player's
-- matches go through seats, and an admin export's filter on status or
-- updated_at reads matches in created_at order. Without it, a head
-- update changes no indexed column and stays on its page.
DROP INDEX matches_status;
