# fftscope_embed(TARGET <lib> NAMESPACE <ns> FUNCTION <fn> FILES <abs paths>...)
# Bakes text files (shaders, kernels) into a static library exposing
#   std::span<const fftscope::EmbeddedFile> <ns>::<fn>();
# The generated source is rebuilt when any file changes.
set(FFTSCOPE_EMBED_SCRIPT ${CMAKE_CURRENT_LIST_DIR}/embed_files.cmake)

function(fftscope_embed)
  cmake_parse_arguments(ARG "" "TARGET;NAMESPACE;FUNCTION" "FILES" ${ARGN})
  set(out ${CMAKE_CURRENT_BINARY_DIR}/${ARG_TARGET}_embedded.cpp)
  string(REPLACE ";" "|" files_arg "${ARG_FILES}")
  add_custom_command(OUTPUT ${out}
    COMMAND ${CMAKE_COMMAND} -DOUT=${out} -DNAMESPACE=${ARG_NAMESPACE} -DFUNCTION=${ARG_FUNCTION}
            "-DFILES=${files_arg}" -P ${FFTSCOPE_EMBED_SCRIPT}
    DEPENDS ${ARG_FILES} ${FFTSCOPE_EMBED_SCRIPT}
    COMMENT "Embedding ${ARG_TARGET} sources" VERBATIM)
  add_library(${ARG_TARGET} STATIC ${out})
  target_include_directories(${ARG_TARGET} PUBLIC ${PROJECT_SOURCE_DIR}/src)
  set_target_properties(${ARG_TARGET} PROPERTIES POSITION_INDEPENDENT_CODE ON)
endfunction()
