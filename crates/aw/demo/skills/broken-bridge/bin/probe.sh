#!/bin/sh
echo "probe"
