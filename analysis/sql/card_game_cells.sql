-- Purpose: per game, player count and faction: players and their wins. The stratum totals
--          of every game, from which card value's game-clustered variance is built
--          (analysis/clustered.py).
-- Parameters: $max_game - only games with game_id < $max_game are used.
-- Reads views: games, players.
-- Returns: game_id, n_players, faction, N, S.
WITH seated AS (
    SELECT p.game_id, g.n_players, p.faction, p.win
    FROM players AS p
    JOIN games AS g USING (game_id)
    WHERE p.game_id < $max_game
)
SELECT
    game_id,
    n_players::BIGINT  AS n_players,
    faction,
    count(*)::DOUBLE   AS N,
    sum(win)::DOUBLE   AS S
FROM seated
GROUP BY game_id, n_players, faction
ORDER BY game_id, n_players, faction;
