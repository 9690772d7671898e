#!/usr/bin/env python3
# Writes Formats/canonical/Ferry.xcdatamodeld from a canonical store's schema: the Core Data mirror an
# app can use with CloudKit. Usage: scripts/canonical-model-mirror.py STORE OUTPUT-contents-file
# CanonicalModelMirrorTests fails when the mirror and the schema disagree.
import sqlite3, sys
db = sqlite3.connect(sys.argv[1])
tables = [r[0] for r in db.execute("select name from sqlite_master where type='table' and name not like 'sqlite_%' and name NOT IN ('grdb_migrations', 'ferry_record_digest', 'ferry_record_digest_stamp') order by rowid")]
def camel(s, upper=False):
    parts = s.split('_')
    out = parts[0] + ''.join(p[:1].upper() + p[1:] for p in parts[1:])
    return out[:1].upper() + out[1:] if upper else out
entities = {t: {'attrs': [], 'rels': []} for t in tables}
for t in tables:
    cols = db.execute(f"pragma table_info({t})").fetchall()
    fks = {r[3]: (r[2], r[6]) for r in db.execute(f"pragma foreign_key_list({t})")}
    # The key: the primary key, or the UNIQUE index that keys logs and snapshots since schema version 2.
    pk_cols = [c[1] for c in cols if c[5] > 0]
    if not pk_cols:
        unique = [r[1] for r in db.execute(f"pragma index_list({t})") if r[2] and not r[4]]
        pk_cols = [r[2] for r in db.execute(f"pragma index_info({unique[0]})")] if unique else []
    for cid, name, ctype, notnull, default, pk in cols:
        if name in fks and name.endswith('_id'):
            dest, on_delete = fks[name]
            relname = camel(name[:-3])
            if name == 'parent_id':
                inv = 'children'; tomany = True
            elif pk_cols == [name]:
                inv = 'snapshot'; tomany = False
            else:
                base = camel(t)
                inv = base + ('es' if base.endswith('s') else 's')
                if relname != camel(dest): inv += 'As' + relname[:1].upper() + relname[1:]
                tomany = True
            rule = 'Cascade' if on_delete == 'CASCADE' else 'Nullify'
            entities[t]['rels'].append(dict(name=relname, dest=dest, tomany=False, rule='Nullify', inverse=inv))
            entities[dest]['rels'].append(dict(name=inv, dest=t, tomany=tomany, rule=rule, inverse=relname))
            continue
        attr = dict(name=camel(name))
        if name == 'id': attr['type'] = 'UUID'
        elif ctype == 'TEXT' and name.endswith('_at'): attr['type'] = 'Date'
        elif ctype == 'TEXT': attr['type'] = 'String'
        elif ctype == 'INTEGER' and name.startswith('is_'): attr['type'] = 'Boolean'
        elif ctype == 'INTEGER': attr['type'] = 'Integer 64'
        elif ctype == 'REAL': attr['type'] = 'Double'
        elif ctype == 'BLOB': attr['type'] = 'Binary'; attr['external'] = True
        entities[t]['attrs'].append(attr)
lines = ['<?xml version="1.0" encoding="UTF-8" standalone="yes"?>',
 '<model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0" lastSavedToolsVersion="23605" systemVersion="24A335" minimumToolsVersion="Automatic" sourceLanguage="Swift" usedWithCloudKit="YES" userDefinedModelVersionIdentifier="1">']
for t in tables:
    e = entities[t]
    lines.append(f'    <entity name="{camel(t, True)}" representedClassName="{camel(t, True)}" syncable="YES" codeGenerationType="class">')
    for a in sorted(e['attrs'], key=lambda a: a['name']):
        extra = ''
        if a['type'] == 'Boolean': extra += ' defaultValueString="NO" usesScalarValueType="YES"'
        if a['type'] == 'Integer 64': extra += ' defaultValueString="0" usesScalarValueType="YES"'
        if a['type'] in ('Double', 'Date'): extra += ' usesScalarValueType="NO"'
        if a.get('external'): extra += ' allowsExternalBinaryDataStorage="YES"'
        lines.append(f'        <attribute name="{a["name"]}" optional="YES" attributeType="{a["type"]}"{extra}/>')
    for r in sorted(e['rels'], key=lambda r: r['name']):
        many = ' toMany="YES"' if r['tomany'] else ' maxCount="1"'
        lines.append(f'        <relationship name="{r["name"]}" optional="YES"{many} deletionRule="{r["rule"]}" destinationEntity="{camel(r["dest"], True)}" inverseName="{r["inverse"]}" inverseEntity="{camel(r["dest"], True)}"/>')
    lines.append('    </entity>')
lines.append('    <configuration name="Default" usedWithCloudKit="YES">')
for t in tables:
    lines.append(f'        <memberEntity name="{camel(t, True)}"/>')
lines.append('    </configuration>')
lines.append('</model>')
open(sys.argv[2],'w').write('\n'.join(lines) + '\n')
