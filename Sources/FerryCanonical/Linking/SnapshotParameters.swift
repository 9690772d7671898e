import FerryJSON

extension LogSnapshot {
    /// A snapshot's `parameters` object: each recipe parameter by name, with its value, text and unit.
    public static func parameters(of parameters: [RecipeParameter]) -> JSONObject {
        // Members gathered into arrays of their exact size, then made objects: growing small
        // objects member by member, each looked up by key first, was a sixth of reading a log.
        var members: [(key: String, value: JSONValue)] = []
        members.reserveCapacity(parameters.count)
        // Each entry's members in key order, as the store writes them: the writer need not sort
        // them. The parameters keep the recipe's order, which `reconstructed_fields` follows.
        for parameter in parameters {
            var entry: [(key: String, value: JSONValue)] = []
            entry.reserveCapacity((parameter.text == nil ? 0 : 1) + (parameter.unit == nil ? 0 : 1) + (parameter.value == nil ? 0 : 1))
            if let text = parameter.text { entry.append(("text", .string(text))) }
            if let unit = parameter.unit { entry.append(("unit", .string(unit))) }
            if let value = parameter.value { entry.append(("value", .double(value))) }
            // A name given twice keeps its first place and its last value, as setting a member does.
            if let index = members.firstIndex(where: { $0.key == parameter.name }) {
                members[index].value = .object(JSONObject(entry))
            } else {
                members.append((parameter.name, .object(JSONObject(entry))))
            }
        }
        return JSONObject(members)
    }
}
