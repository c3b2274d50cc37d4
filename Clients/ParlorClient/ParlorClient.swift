// ParlorClient: the async client library shared by the terminal client and parlor-load.
