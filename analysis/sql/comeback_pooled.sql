-- Purpose: comeback odds pooled over every round before the game's last, by player count
--          and deficit bucket (buckets as in comeback.sql). A player is counted once per
--          round, so the rows of one game are strongly dependent; the per-game moments (sum
--          over games of w^2, w n, n^2 with w wins and n player-rounds of the row in the
--          game) give the game-clustered interval.
-- Parameters: $edges (BIGINT[], ascending upper edges, from deficit_edges.sql).
-- Reads views: standings (round_standings.sql).
-- Returns: n_players, bucket, players, wins, rate, min_deficit, max_deficit,
--          games, sum_w2, sum_wn, sum_n2.
WITH bucketed AS (
    SELECT
        game_id,
        n_players,
        deficit,
        win,
        CASE WHEN deficit = 0 THEN 0
             ELSE 1 + len(list_filter($edges::BIGINT[], lambda e: e < deficit))
        END AS bucket
    FROM standings
    WHERE round < last_round
),
per_game AS (
    SELECT
        n_players, bucket, game_id,
        count(*)      AS n,
        sum(win)      AS w,
        min(deficit)  AS min_deficit,
        max(deficit)  AS max_deficit
    FROM bucketed
    GROUP BY n_players, bucket, game_id
)
SELECT
    n_players::BIGINT        AS n_players,
    bucket::BIGINT           AS bucket,
    sum(n)::BIGINT           AS players,
    sum(w)::DOUBLE           AS wins,
    sum(w) / sum(n)          AS rate,
    min(min_deficit)::BIGINT AS min_deficit,
    max(max_deficit)::BIGINT AS max_deficit,
    count(*)::BIGINT         AS games,
    sum(w * w)::DOUBLE       AS sum_w2,
    sum(w * n)::DOUBLE       AS sum_wn,
    sum(n * n)::DOUBLE       AS sum_n2
FROM per_game
GROUP BY n_players, bucket
ORDER BY n_players, bucket;
