-- Purpose: comeback odds: how often a player who is `deficit` points behind the leader after
--          a round (before the game's last) goes on to win, by player count, round and
--          deficit bucket. Bucket 0 = leading or tied for the lead; bucket k (1..len(edges))
--          = deficit in (edges[k-1], edges[k]] with edges[0] = 0; the last bucket = above
--          every edge. Wins are fractional (1/k for a k-way shared victory).
-- Parameters: $edges (BIGINT[], ascending upper edges, from deficit_edges.sql).
-- Reads views: standings (round_standings.sql).
-- Returns: n_players, round, bucket, players, wins, rate, min_deficit, max_deficit.
WITH bucketed AS (
    SELECT
        n_players,
        round,
        deficit,
        win,
        CASE WHEN deficit = 0 THEN 0
             ELSE 1 + len(list_filter($edges::BIGINT[], lambda e: e < deficit))
        END AS bucket
    FROM standings
    WHERE round < last_round
)
SELECT
    n_players::BIGINT        AS n_players,
    round::BIGINT            AS round,
    bucket::BIGINT           AS bucket,
    count(*)::BIGINT         AS players,
    sum(win)::DOUBLE         AS wins,
    sum(win) / count(*)      AS rate,
    min(deficit)::BIGINT     AS min_deficit,
    max(deficit)::BIGINT     AS max_deficit
FROM bucketed
GROUP BY n_players, round, bucket
ORDER BY n_players, round, bucket;
