-- Purpose: head-to-head (co-presence) matrix: the win rate of the row faction in the games
--          where the column faction sat at the same table, pooled over player counts, with
--          the row faction's expected wins there (sum of 1/n) so counts are comparable, and
--          the per-game moments (sum over games of w^2, w n, n^2 with w wins and n seats of
--          the row faction in the game) for a game-clustered interval.
-- Parameters: $none_label - the faction label of symmetric games; those rows are left out.
--             $max_game - only games with game_id < $max_game are used (the pair join grows
--             with players squared; game ids cycle through the player counts, so the subset
--             is balanced).
-- Reads views: games, players.
-- Returns: faction, opponent, games, seats, wins, expected, fair, rate, win_ratio,
--          sum_w2, sum_wn, sum_n2.
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
),
per_game AS (
    SELECT
        faction,
        opponent,
        game_id,
        count(*)                AS n,
        sum(win)                AS w,
        sum(1.0 / n_players)    AS e
    FROM pairs
    GROUP BY faction, opponent, game_id
)
SELECT
    faction,
    opponent,
    count(*)::BIGINT           AS games,
    sum(n)::BIGINT             AS seats,
    sum(w)::DOUBLE             AS wins,
    sum(e)::DOUBLE             AS expected,
    sum(e) / sum(n)            AS fair,
    sum(w) / sum(n)            AS rate,
    sum(w) / sum(e)            AS win_ratio,
    sum(w * w)::DOUBLE         AS sum_w2,
    sum(w * n)::DOUBLE         AS sum_wn,
    sum(n * n)::DOUBLE         AS sum_n2
FROM per_game
GROUP BY faction, opponent
ORDER BY faction, opponent;
