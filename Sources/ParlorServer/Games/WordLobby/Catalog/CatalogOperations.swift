import ParlorRules
import ParlorWire

/// The catalog's operations: public, signed in or not (the seed lets the app keep an offline copy).
extension CatalogService {
    /// `getCatalog {since?}`: the whole catalog, or `{unchanged: true, version}` when `since` is current.
    var getCatalog: OperationHandler<GetCatalogArguments> {
        OperationHandler(Operation.getCatalog) { [self] args, _ throws(WireError) in .reply(try get(since: args.since)) }
    }

    /// `observeCatalog`: the current version first, then each new one.
    var observeCatalog: OperationHandler<EmptyArguments> {
        OperationHandler(Operation.observeCatalog) { [self] _, context throws(WireError) in
            .subscribe(try subscribe(user: context.user)) { topic throws(WireError) in
                try EncodedJSON.encoding(Subscribed(subscription: topic))
            }
        }
    }

    var operations: [OperationEntry] { [getCatalog.entry(), observeCatalog.entry()] }
}
