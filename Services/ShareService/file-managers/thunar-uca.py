#!/usr/bin/env python3
"""Thunar's custom actions live in one file, ~/.config/Thunar/uca.xml, with the user's own.

    thunar-uca.py install UCA_XML BINDIR    adds (or replaces) our action, keeping every other one
    thunar-uca.py remove UCA_XML            removes our action alone

Our action is the one whose <unique-id> starts with "simplex-share". Thunar runs <command> with
/bin/sh after putting each selected path, shell-quoted, in place of %F.
"""
import os
import sys
import tempfile
import xml.etree.ElementTree as ET

UNIQUE = "simplex-share-1"


def our(action):
    unique = action.findtext("unique-id") or ""
    return unique.startswith("simplex-share")


def load(path):
    if os.path.exists(path) and os.path.getsize(path) > 0:
        return ET.parse(path)
    return ET.ElementTree(ET.Element("actions"))


def save(tree, path):
    os.makedirs(os.path.dirname(path) or ".", exist_ok=True)
    ET.indent(tree, space="  ")
    handle, temporary = tempfile.mkstemp(dir=os.path.dirname(path) or ".", prefix=".uca-")
    with os.fdopen(handle, "wb") as out:
        out.write(b'<?xml version="1.0" encoding="UTF-8"?>\n')
        tree.write(out, encoding="utf-8")
        out.write(b"\n")
    os.replace(temporary, path)


def install(path, bindir):
    tree = load(path)
    root = tree.getroot()
    for action in [a for a in root.findall("action") if our(a)]:
        root.remove(action)
    action = ET.SubElement(root, "action")
    for tag, text in [
        ("icon", "simplex-chat"),
        ("name", "Send with SimpleX Chat"),
        ("submenu", ""),
        ("unique-id", UNIQUE),
        ("command", f"{bindir}/simplex-share -- %F"),
        ("description", "Send the selected files into a SimpleX chat"),
        ("range", ""),
        ("patterns", "*"),
    ]:
        ET.SubElement(action, tag).text = text
    for tag in ["audio-files", "image-files", "other-files", "text-files", "video-files"]:
        ET.SubElement(action, tag)
    save(tree, path)


def remove(path):
    if not os.path.exists(path):
        return
    tree = load(path)
    root = tree.getroot()
    for action in [a for a in root.findall("action") if our(a)]:
        root.remove(action)
    save(tree, path)


if __name__ == "__main__":
    if len(sys.argv) == 4 and sys.argv[1] == "install":
        install(sys.argv[2], sys.argv[3])
    elif len(sys.argv) == 3 and sys.argv[1] == "remove":
        remove(sys.argv[2])
    else:
        sys.exit(__doc__)
