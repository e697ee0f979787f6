-- Purpose (Dwarfest): tavern destruction per player-game, by player count: the mean
--          number of destructions a player suffers in a game, and the share of
--          player-games with at least one destruction.
-- Parameters: none.
-- Reads views: games, players (taverns_destroyed).
-- Returns: n_players, player_games, destroyed, per_player_game, players_hit, hit_rate.
WITH seated AS (
    SELECT
        g.n_players,
        p.taverns_destroyed
    FROM players AS p
    JOIN games AS g USING (game_id)
)
SELECT
    n_players::BIGINT                                       AS n_players,
    count(*)::BIGINT                                        AS player_games,
    sum(taverns_destroyed)::BIGINT                          AS destroyed,
    sum(taverns_destroyed) / count(*)                       AS per_player_game,
    count(*) FILTER (WHERE taverns_destroyed > 0)           AS players_hit,
    count(*) FILTER (WHERE taverns_destroyed > 0) / count(*) AS hit_rate
FROM seated
GROUP BY n_players
ORDER BY n_players;
