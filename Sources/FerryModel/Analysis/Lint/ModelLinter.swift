import FerryJSON

/// Which entities must follow CloudKit's rules, and why.
public struct CloudKitScope: Sendable, Hashable, Encodable {
    public var applies: Bool
    public var reason: String
    /// Sorted; every entity when the whole model is used with CloudKit.
    public var entities: [String]
}

/// The result of linting one model version.
public struct LintReport: Sendable, Encodable {
    public let file: String
    @NullEncoded public var version: String?
    public let cloudKit: CloudKitScope
    /// Sorted by severity, then by file position.
    public let findings: [LintFinding]
    /// Findings per severity, every severity listed.
    public let counts: [String: Int]

    init(file: String, version: String?, cloudKit: CloudKitScope, findings: [LintFinding]) {
        self.file = file
        self.version = version
        self.cloudKit = cloudKit
        self.findings = findings
        counts = Dictionary(uniqueKeysWithValues: LintSeverity.allCases.map { severity in (severity.rawValue, findings.filter { $0.severity == severity }.count) })
    }

    public var hasErrors: Bool { findings.contains { $0.severity == .error } }

    public func count(_ severity: LintSeverity) -> Int {
        counts[severity.rawValue] ?? 0
    }
}

/// Checks a model for what breaks at load time, under CloudKit, or in a later migration.
///
/// CloudKit rules apply to the whole model when it is marked `usedWithCloudKit` or when
/// `forceCloudKit` is set, and to the member entities of configurations marked
/// `usedWithCloudKit` otherwise. Each rule is a ``LintRule``.
///
/// For example:
/// ```swift
/// let report = ModelLinter().lint(try ModelBundle(at: path).currentModel())
/// if report.hasErrors { … }
/// ```
public struct ModelLinter: Sendable {
    public var forceCloudKit: Bool

    public init(forceCloudKit: Bool = false) {
        self.forceCloudKit = forceCloudKit
    }

    public func lint(_ model: DataModel) -> LintReport {
        let scope = cloudKitScope(of: model)
        var context = LintContext(model: model, cloudKitEntities: Set(scope.entities))
        context.checkStructure()
        context.checkRelationships()
        context.checkTransformables()
        context.checkDefaults()
        if scope.applies { context.checkCloudKit() }
        let findings = context.findings.enumerated().sorted { a, b in
            (a.element.severity, a.element.line ?? 0, a.offset) < (b.element.severity, b.element.line ?? 0, b.offset)
        }.map(\.element)
        return LintReport(file: model.file, version: model.versionName, cloudKit: scope, findings: findings)
    }

    public func cloudKitScope(of model: DataModel) -> CloudKitScope {
        let everyEntity = model.entities.map(\.name).sorted()
        if forceCloudKit {
            return CloudKitScope(applies: true, reason: "requested with --cloudkit", entities: everyEntity)
        }
        if model.usedWithCloudKit {
            return CloudKitScope(applies: true, reason: "the model is marked usedWithCloudKit", entities: everyEntity)
        }
        let cloudKitConfigurations = model.configurations.filter(\.usedWithCloudKit)
        guard !cloudKitConfigurations.isEmpty else {
            return CloudKitScope(applies: false, reason: "no configuration is marked usedWithCloudKit", entities: [])
        }
        var members: Set<String> = []
        for configuration in cloudKitConfigurations {
            // The default configuration holds every entity; Xcode writes it without members.
            if configuration.memberEntities.isEmpty && ["Default", "PF_DEFAULT_CONFIGURATION_NAME"].contains(configuration.name) {
                members.formUnion(everyEntity)
            }
            members.formUnion(configuration.memberEntities)
        }
        // Entities of one hierarchy share a table and so a CloudKit record type.
        for name in members {
            guard let entity = model.entity(named: name) else { continue }
            members.formUnion(entity.superentityNames)
            members.formUnion(model.hierarchy(below: entity).map(\.name))
        }
        let names = cloudKitConfigurations.map { "\"\($0.name)\"" }.joined(separator: ", ")
        return CloudKitScope(applies: true, reason: "configuration \(names) is marked usedWithCloudKit",
                             entities: members.sorted())
    }
}

/// Collects findings while the rule groups walk the model.
struct LintContext {
    let model: DataModel
    let cloudKitEntities: Set<String>
    var findings: [LintFinding] = []

    mutating func report(_ rule: LintRule, _ entity: EntityDescription, property: String? = nil, line: Int? = nil,
                         _ message: String, hint: String) {
        let location = property.map { "\(entity.name).\($0)" } ?? entity.name
        findings.append(LintFinding(rule, at: location, message, hint: hint, file: model.file, line: line ?? entity.line))
    }

    mutating func report(_ rule: LintRule, at location: String, line: Int?, _ message: String, hint: String) {
        findings.append(LintFinding(rule, at: location, message, hint: hint, file: model.file, line: line))
    }
}
