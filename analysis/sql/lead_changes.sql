-- Purpose: distribution of lead changes per game, by player count. The leader after a round
--          is the one player with the top score; a round whose top score is shared has no
--          leader and neither starts nor ends a lead. A lead change is a round whose leader
--          differs from the most recent earlier round that had a leader (so A, tie, B is one
--          change and A, tie, A none). The first leader is not a change.
-- Parameters: $max_game (BIGINT): only games with game_id < $max_game (bounds the time on huge runs).
-- Reads views: rounds, games.
-- Returns: n_players, lead_changes, games.
WITH tops AS (
    SELECT
        game_id,
        round,
        max(score, 2)            AS top2,
        arg_max(seat, score)     AS top_seat
    FROM rounds
    WHERE game_id < $max_game
    GROUP BY game_id, round
),
leaders AS (
    SELECT
        game_id,
        round,
        CASE WHEN len(top2) = 1 OR top2[1] > top2[2] THEN top_seat END AS leader
    FROM tops
),
previous AS (
    SELECT
        game_id,
        leader,
        last_value(leader IGNORE NULLS) OVER (
            PARTITION BY game_id ORDER BY round
            ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING) AS before
    FROM leaders
),
per_game AS (
    SELECT
        game_id,
        count(*) FILTER (WHERE leader <> before) AS lead_changes
    FROM previous
    GROUP BY game_id
)
SELECT
    g.n_players::BIGINT          AS n_players,
    pg.lead_changes::BIGINT      AS lead_changes,
    count(*)::BIGINT             AS games
FROM per_game AS pg
JOIN games AS g USING (game_id)
GROUP BY g.n_players, pg.lead_changes
ORDER BY n_players, lead_changes;
