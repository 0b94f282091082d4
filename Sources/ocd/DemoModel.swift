import OpenCoreData

/// The User/Post model of the first seed, built in code the way the seed builds it.
enum DemoModel {
    /// A new, editable model with the entities `User` and `Post`.
    static func make() -> NSManagedObjectModel {
        let model = NSManagedObjectModel()

        let user = NSEntityDescription()
        user.name = "User"
        user.managedObjectClassName = "User"

        let name = attribute("name", .stringAttributeType, optional: false)
        let age = attribute("age", .integer32AttributeType, optional: true)
        age.defaultValue = 0
        let email = attribute("email", .stringAttributeType, optional: true)
        let createdAt = attribute("createdAt", .dateAttributeType, optional: false)
        user.properties = [name, age, email, createdAt]

        let post = NSEntityDescription()
        post.name = "Post"
        post.managedObjectClassName = "Post"
        let title = attribute("title", .stringAttributeType, optional: false)
        let content = attribute("content", .stringAttributeType, optional: true)
        let publishedAt = attribute("publishedAt", .dateAttributeType, optional: true)
        post.properties = [title, content, publishedAt]

        let posts = NSRelationshipDescription()
        posts.name = "posts"
        posts.destinationEntity = post
        posts.minCount = 0
        posts.maxCount = 0
        posts.deleteRule = .cascadeDeleteRule

        let author = NSRelationshipDescription()
        author.name = "author"
        author.destinationEntity = user
        author.minCount = 1
        author.maxCount = 1
        author.isOptional = false
        author.deleteRule = .nullifyDeleteRule

        posts.inverseRelationship = author
        author.inverseRelationship = posts
        user.properties += [posts]
        post.properties += [author]

        model.entities = [user, post]
        return model
    }

    private static func attribute(
        _ name: String, _ type: NSAttributeType, optional: Bool
    ) -> NSAttributeDescription {
        let attribute = NSAttributeDescription()
        attribute.name = name
        attribute.attributeType = type
        attribute.isOptional = optional
        return attribute
    }
}
