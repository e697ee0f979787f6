-- Purpose: win rate of each seat (0 = first player) by player count.
--          Wins are fractional: a k-way shared victory gives each winner 1/k.
-- Parameters: none.
-- Reads views: games, players.
-- Returns: n_players, seat, games, wins, rate.
WITH seated AS (
    SELECT
        g.n_players,
        p.seat,
        p.win
    FROM players AS p
    JOIN games AS g USING (game_id)
)
SELECT
    n_players::BIGINT        AS n_players,
    seat::BIGINT             AS seat,
    count(*)::BIGINT         AS games,
    sum(win)::DOUBLE         AS wins,
    sum(win) / count(*)      AS rate
FROM seated
GROUP BY n_players, seat
ORDER BY n_players, seat;
