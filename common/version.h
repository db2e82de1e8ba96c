/* version.h - the toolkit version printed by every tool's --version. */
#ifndef COMMON_VERSION_H
#define COMMON_VERSION_H
#define TOOLKIT_VERSION "0.1.0"
#endif
