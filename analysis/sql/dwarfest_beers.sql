-- Purpose (Dwarfest): beer service by player count: beers served and wasted per
--          player-game, the wasted share of all beers poured, and customers refused.
--          Beers served may be logged as one column (beers_served) or split by where
--          they were served (beers_served_table, beers_served_bar); both are summed.
-- Parameters: none.
-- Reads views: games, players (beers_served*, beers_wasted, customers_refused).
-- Returns: n_players, player_games, served, wasted, wasted_per_player_game, waste_share,
--          refused_per_player_game.
WITH seated AS (
    SELECT
        g.n_players,
        list_sum(list_value(*COLUMNS('^beers_served(_table|_bar)?$'))) AS beers_served,
        p.beers_wasted,
        p.customers_refused
    FROM players AS p
    JOIN games AS g USING (game_id)
)
SELECT
    n_players::BIGINT                                           AS n_players,
    count(*)::BIGINT                                            AS player_games,
    sum(beers_served)::BIGINT                                   AS served,
    sum(beers_wasted)::BIGINT                                   AS wasted,
    sum(beers_wasted) / count(*)                                AS wasted_per_player_game,
    sum(beers_wasted) / nullif(sum(beers_served) + sum(beers_wasted), 0) AS waste_share,
    sum(customers_refused) / count(*)                           AS refused_per_player_game
FROM seated
GROUP BY n_players
ORDER BY n_players;
