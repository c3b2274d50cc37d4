// ParlorServer: sessions, identity, room and lobby actors, subscriptions, HTTP routes, persistence, metrics.
