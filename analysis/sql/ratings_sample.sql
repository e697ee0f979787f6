-- Purpose: finishing orders for the Plackett-Luce fit (analysis/ratings.py), on the first
--          games of a large run (game ids cycle through the player counts, so the subset is
--          balanced).
-- Parameters: $max_game - only games with game_id < $max_game are used.
-- Reads views: games, players.
-- Returns: game_id, n_players, seat, faction, rank, games_total (games in the whole run,
--          so the report can say "fitted on the first X of N games" from the data).
SELECT
    p.game_id,
    g.n_players::BIGINT   AS n_players,
    p.seat::BIGINT        AS seat,
    p.faction,
    p.rank::BIGINT        AS rank,
    (SELECT count(*) FROM games)::BIGINT AS games_total
FROM players AS p
JOIN games AS g USING (game_id)
WHERE p.game_id < $max_game
ORDER BY p.game_id, p.seat;
