-- Purpose (Dwarfest): mean of each Dwarfest player column by player count and seat, to
--          see where a seat's advantage (or handicap) comes from.
-- Parameters: none.
-- Reads views: games, players (the Dwarfest extra columns).
-- Returns: n_players, seat, games, then one mean per extra column.
WITH seated AS (
    SELECT
        g.n_players,
        p.*
    FROM players AS p
    JOIN games AS g USING (game_id)
)
SELECT
    n_players::BIGINT              AS n_players,
    seat::BIGINT                   AS seat,
    count(*)::BIGINT               AS games,
    avg(nuggets)                   AS nuggets,
    avg(fame)                      AS fame,
    avg(tables)                    AS tables,
    avg(barrels)                   AS barrels,
    avg(dancers)                   AS dancers,
    avg(brawls_broken)             AS brawls_broken,
    avg(taverns_destroyed)         AS taverns_destroyed,
    avg(beers_served)              AS beers_served,
    avg(beers_wasted)              AS beers_wasted,
    avg(customers_refused)         AS customers_refused,
    avg(cards_played)              AS cards_played,
    avg(sips_used)                 AS sips_used
FROM seated
GROUP BY n_players, seat
ORDER BY n_players, seat;
