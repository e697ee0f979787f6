-- Purpose (Brewin' USA): how often Brewfests happen and who wins them, by player count.
--          A Brewfest's winner is a challenger when the winning beer was launched (or
--          relaunched) onto that city in the same round; otherwise the defender held the city.
--          (A Citrus move that starts a Brewfest counts as a defender win here: a known
--          approximation, the move is not an event row.)
-- Parameters: none.
-- Reads views: games (brewfests), events (play, relaunch, brewfest_win).
-- Returns: n_players, games, brewfests, brewfests_per_game, challenger_wins, challenger_rate.
WITH launched AS (
    SELECT DISTINCT game_id, seat, "round", target
    FROM events
    WHERE kind IN ('play', 'relaunch')
),
wins AS (
    SELECT
        w.game_id,
        (l.game_id IS NOT NULL) AS challenger_won
    FROM events AS w
    LEFT JOIN launched AS l
        ON l.game_id = w.game_id AND l.seat = w.seat AND l."round" = w."round" AND l.target = w.target
    WHERE w.kind = 'brewfest_win'
),
per_game AS (
    SELECT
        g.game_id,
        g.n_players,
        count(w.game_id)                                   AS fests,
        sum(CASE WHEN w.challenger_won THEN 1 ELSE 0 END)  AS challenger_wins
    FROM games AS g
    LEFT JOIN wins AS w USING (game_id)
    GROUP BY g.game_id, g.n_players
)
SELECT
    n_players::BIGINT                                 AS n_players,
    count(*)::BIGINT                                  AS games,
    sum(fests)::BIGINT                                AS brewfests,
    avg(fests::DOUBLE)                                AS brewfests_per_game,
    coalesce(sum(challenger_wins), 0)::BIGINT         AS challenger_wins,
    coalesce(sum(challenger_wins), 0) / greatest(sum(fests), 1)  AS challenger_rate
FROM per_game
GROUP BY n_players
ORDER BY n_players;
