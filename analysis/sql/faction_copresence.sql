-- Purpose: head-to-head (co-presence) matrix: the win rate of the row faction in the games
--          where the column faction sat at the same table, pooled over player counts, with
--          the row faction's expected wins there (sum of 1/n) so counts are comparable.
-- Parameters: $none_label - the faction label of symmetric games; those rows are left out.
--             $max_game - only games with game_id < $max_game are used (the pair join grows
--             with players squared; game ids cycle through the player counts, so the subset
--             is balanced).
-- Reads views: games, players.
-- Returns: faction, opponent, games, wins, expected, fair, rate, win_ratio.
WITH seated AS (
    SELECT
        p.game_id,
        p.seat,
        p.faction,
        p.win,
        g.n_players
    FROM players AS p
    JOIN games AS g USING (game_id)
    WHERE p.faction <> $none_label AND p.game_id < $max_game
),
pairs AS (
    -- one row per (player, other faction present); a faction present twice counts once
    SELECT DISTINCT
        a.game_id,
        a.seat,
        a.faction,
        a.win,
        a.n_players,
        b.faction AS opponent
    FROM seated AS a
    JOIN seated AS b ON a.game_id = b.game_id AND a.seat <> b.seat
)
SELECT
    faction,
    opponent,
    count(*)::BIGINT                           AS games,
    sum(win)::DOUBLE                           AS wins,
    sum(1.0 / n_players)::DOUBLE               AS expected,
    sum(1.0 / n_players) / count(*)            AS fair,
    sum(win) / count(*)                        AS rate,
    sum(win) / sum(1.0 / n_players)            AS win_ratio
FROM pairs
GROUP BY faction, opponent
ORDER BY faction, opponent;
