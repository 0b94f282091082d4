import Foundation

extension NSManagedObjectModel {
    /// Returns a model created by merging all the models found in the given bundles.
    ///
    /// - Parameter bundles: The bundles to search. If you specify `nil`, the main bundle is searched.
    /// - Returns: A model created by merging all the models found in `bundles` (a model without entities
    ///   when they hold none), or `nil` when a model cannot be read or two models define an entity or a
    ///   fetch request template with the same name.
    ///
    /// The models are the compiled `.momd` folders (their current version) and `.mom` files at the top
    /// level of a bundle's resources, as apps ship them, and the model source Xcode writes: each
    /// `.xcdatamodeld` bundle (its current version) and `.xcdatamodel` folder; for a name present in both
    /// forms, the source. Add the model to your target's resources with `.copy("Model.xcdatamodeld")` (or
    /// `.copy("Model.momd")`) and pass `[Bundle.module]`.
    public class func mergedModel(from bundles: [Bundle]?) -> NSManagedObjectModel? {
        guard let models = _models(in: bundles) else { return nil }
        return NSManagedObjectModel(byMerging: models)
    }

    /// Returns a merged model from the models found in the given bundles, only if it matches the version
    /// information in the store metadata.
    ///
    /// - Parameters:
    ///   - bundles: The bundles to search. If you specify `nil`, the main bundle is searched.
    ///   - metadata: A dictionary containing version information from the metadata for a persistent
    ///     store (its ``NSStoreModelVersionHashesKey`` entry).
    /// - Returns: The managed object model used to create the store for the metadata; `nil` if a model
    ///   cannot be created to match the version information in `metadata`.
    public class func mergedModel(from bundles: [Bundle]?, forStoreMetadata metadata: [String: Any]) -> NSManagedObjectModel? {
        guard let models = _models(in: bundles) else { return nil }
        return NSManagedObjectModel(byMerging: models, forStoreMetadata: metadata)
    }

    /// Every model found in `bundles` (the main bundle for `nil`), or `nil` when one cannot be read.
    private class func _models(in bundles: [Bundle]?) -> [NSManagedObjectModel]? {
        do {
            var models: [NSManagedObjectModel] = []
            for bundle in bundles ?? [Bundle.main] {
                for url in try ModelBundleSearch.modelURLs(in: bundle) {
                    models.append(try ModelBundleSearch.loadModel(at: url))
                }
            }
            return models
        } catch {
            return nil
        }
    }
}
