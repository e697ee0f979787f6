-- Purpose: upper edges of the deficit buckets of comeback.sql: the quartiles of the positive
--          deficits (points behind the leader) over every round before each game's last, so
--          the buckets follow each game's own score scale.
-- Parameters: none.
-- Reads views: standings (round_standings.sql).
-- Returns: one row: edges (list of three integers, ascending; NULL when no one ever trailed).
SELECT
    quantile_disc(deficit, [0.25, 0.5, 0.75])::BIGINT[] AS edges
FROM standings
WHERE round < last_round
  AND deficit > 0;
