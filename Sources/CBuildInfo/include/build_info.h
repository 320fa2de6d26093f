#ifndef MENURANK_BUILD_INFO_H
#define MENURANK_BUILD_INFO_H

/// The version this binary was built as: MENURANK_VERSION at build time (Package.swift), e.g.
/// "1.2.0" on a tag, "1.2.0-3-gabc1234" past one, "0.0.0-dev" without.
const char *menurank_build_version(void);

#endif
