-- Purpose: mean score with the game as the unit, by player count: each game's mean score
--          over its seats, then the mean and sd of those per-game means across games.
--          Scores of one game are correlated (positively or, with fixed-sum scoring,
--          negatively), so comparing runs needs games, not player-games, as the n.
-- Parameters: none.
-- Reads views: games, players.
-- Returns: n_players, n (games), mean, sd.
WITH per_game AS (
    SELECT
        g.n_players,
        p.game_id,
        avg(p.score::DOUBLE) AS score
    FROM players AS p
    JOIN games AS g USING (game_id)
    GROUP BY g.n_players, p.game_id
)
SELECT
    n_players::BIGINT       AS n_players,
    count(score)::BIGINT    AS n,
    avg(score)              AS mean,
    stddev_samp(score)      AS sd
FROM per_game
GROUP BY n_players
ORDER BY n_players;
